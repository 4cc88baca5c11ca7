module gowaits

go 1.21
