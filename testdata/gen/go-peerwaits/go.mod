module gopeerwaits

go 1.26

require (
	github.com/fsnotify/fsnotify v1.10.1
	golang.org/x/sync v0.22.0
)

require golang.org/x/sys v0.13.0 // indirect
