module stalls

go 1.13
