module verdictsgo

go 1.27
