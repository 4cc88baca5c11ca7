module verdictsgo

go 1.26
