module debug3gen

go 1.26
