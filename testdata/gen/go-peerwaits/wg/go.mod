module gowg

go 1.21
