package rating

import "testing"

// TestWaldBounds checks Wald's bounds against values worked by hand, and that
// an SPRT's bounds are Wald's for its error rates.
func TestWaldBounds(t *testing.T) {
	tests := []struct {
		name         string
		alpha, beta  float64
		lower, upper float64
	}{
		// ln(0.05/0.95) = -ln 19, ln(0.95/0.05) = ln 19.
		{"symmetric 5%", 0.05, 0.05, -2.9444390, 2.9444390},
		// ln(0.1/0.95) = -2.2512918, ln(0.9/0.05) = ln 18 = 2.8903718.
		{"alpha 5%, beta 10%", 0.05, 0.1, -2.2512918, 2.8903718},
		// ln(0.05/0.9) = -ln 18, ln(0.95/0.1) = ln 9.5 = 2.2512918.
		{"alpha 10%, beta 5%", 0.1, 0.05, -2.8903718, 2.2512918},
		// ln(0.01/0.99) = -4.5951199, ln(0.99/0.01) = 4.5951199.
		{"symmetric 1%", 0.01, 0.01, -4.5951199, 4.5951199},
		// ln(0.5/0.75) = -0.4054651, ln(0.5/0.25) = ln 2 = 0.6931472.
		{"alpha 25%, beta 50%", 0.25, 0.5, -0.4054651, 0.6931472},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := WaldBounds(tt.alpha, tt.beta)
			near(t, "lower", lo, tt.lower, 1e-6)
			near(t, "upper", hi, tt.upper, 1e-6)
			sp := SPRT{Elo0: 0, Elo1: 10, Alpha: tt.alpha, Beta: tt.beta, Model: Logistic}
			if slo, shi := sp.Bounds(); slo != lo || shi != hi {
				t.Errorf("SPRT.Bounds() = %v, %v; WaldBounds gives %v, %v", slo, shi, lo, hi)
			}
		})
	}
}
