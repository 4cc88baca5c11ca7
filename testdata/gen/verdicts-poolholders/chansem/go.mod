module example.com/chansem

go 1.13
