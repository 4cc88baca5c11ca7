module collect

go 1.13
