module fut

go 1.26
