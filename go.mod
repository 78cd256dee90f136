module github.com/arimaalab/arimaalab

go 1.26
