module goheldexpvar

go 1.26
