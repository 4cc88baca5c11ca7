module example.com/stoptest

go 1.13
