module gomoments

go 1.21
