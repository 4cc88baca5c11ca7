module dumpdiff.example/logwrap

go 1.26
