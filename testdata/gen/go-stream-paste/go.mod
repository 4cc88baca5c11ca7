module yprog

go 1.22

require (
	github.com/hashicorp/go-msgpack v0.5.5
	github.com/hashicorp/yamux v0.1.2
)
