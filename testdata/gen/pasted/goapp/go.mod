module dumpdiff.example/checkout

go 1.26
