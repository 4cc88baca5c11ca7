module github.com/dumpdiff/dumpdiff/testdata/gen/go-peerread

go 1.22
