module gotrace

go 1.22
