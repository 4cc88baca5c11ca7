module dumpdiff-gen/slowupstream

go 1.26
