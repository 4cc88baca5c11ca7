module example/app

go 1.13
