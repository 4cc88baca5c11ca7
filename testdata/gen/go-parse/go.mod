module dumpdiff-gen/goparse

go 1.26
