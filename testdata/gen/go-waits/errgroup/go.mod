module goerrgroup

go 1.26

require golang.org/x/sync v0.22.0
