module gopool

go 1.21
