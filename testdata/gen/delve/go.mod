module example.com/blocked

go 1.26
