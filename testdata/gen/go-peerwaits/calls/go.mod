module gocalls

go 1.21
