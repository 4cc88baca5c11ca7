module gotrace

go 1.25
