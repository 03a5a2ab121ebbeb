module sg.invalid/go

go 1.19
