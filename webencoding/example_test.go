package webencoding_test

import (
	"fmt"
	"log"

	"github.com/relurl/relurl/webencoding"
)

func ExampleGet() {
	// "latin1" is a label of windows-1252, as it is in every browser.
	enc, name, err := webencoding.Get(" Latin1 ")
	if err != nil {
		log.Fatal(err)
	}
	s, _ := enc.NewDecoder().String("caf\xe9 \x80")
	fmt.Println(name, s)
	// Output:
	// windows-1252 café €
}
