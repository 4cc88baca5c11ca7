module example.com/stalls

go 1.13
