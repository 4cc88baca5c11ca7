module gonewaits/weighted

go 1.26.0

require golang.org/x/sync v0.24.0
