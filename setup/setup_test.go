package setup

import (
	"math/rand/v2"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

func TestDrawIsALegalSetup(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		for c := range engine.Color(2) {
			pl := Draw(rng, c, 0.5, 3)
			// A full, legal setup: ParseSetup checks ranks, counts and squares.
			got, err := engine.ParseSetup(c, engine.FormatSetup(pl))
			if err != nil {
				t.Fatalf("draw %d %s: %v", i, c.Name(), err)
			}
			if len(got) != 16 {
				t.Fatalf("draw %d: %d pieces", i, len(got))
			}
		}
	}
}

func TestStandard(t *testing.T) {
	g := engine.NewGame()
	for c := range engine.Color(2) {
		if err := g.Setup(c, Standard(c)); err != nil {
			t.Fatal(err)
		}
	}
	p := g.Position()
	want := "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"
	if p.String() != want {
		t.Fatalf("standard setups give %s, want %s", p.String(), want)
	}
}

func TestDrawDeterministic(t *testing.T) {
	a := Draw(rand.New(rand.NewPCG(5, 5)), engine.Gold, 0.5, 3)
	b := Draw(rand.New(rand.NewPCG(5, 5)), engine.Gold, 0.5, 3)
	if engine.FormatSetup(a) != engine.FormatSetup(b) {
		t.Fatal("the same seed gave two setups")
	}
}
