package ratings

import "math"

// The constants of fdlibm's e_exp.c (Sun Microsystems, 1993): ln 2 split in a
// high part with trailing zero bits (so that k·ln2Hi is exact for |k| < 2^11)
// and the rest, and a Remez polynomial for R(r²) on [0, 0.34658²].
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	log2e = 1.44269504088896338700e+00

	expP1 = 1.66666666666666657415e-01
	expP2 = -2.77777777770155933842e-03
	expP3 = 6.61375632143793436117e-05
	expP4 = -1.65339022054652515390e-06
	expP5 = 4.13813679705723846039e-08

	expOverflow  = 7.09782712893383973096e+02
	expUnderflow = -7.45133219101941108420e+02
	expTiny      = 1.0 / (1 << 28)
)

// exp is e^x computed with IEEE-754 binary64 + - * / only, each product
// rounded by an explicit conversion so that no compiler fuses it into a
// multiply-add, and an exact scaling by 2^k: the same bits on every platform,
// which math.Exp does not promise (on amd64 it takes an FMA path when the CPU
// has one). It is fdlibm's algorithm (the one V8's Math.exp uses), within 1
// ulp of e^x. A verifier in another language ports this function as it is.
func exp(x float64) float64 {
	switch {
	case x != x || x > expOverflow:
		if x != x {
			return x
		}
		return math.Inf(1)
	case x < expUnderflow:
		return 0
	case -expTiny < x && x < expTiny:
		return 1 + x
	}
	// x = k·ln2 + r with |r| ≤ ln2/2, k the nearest integer to x/ln2.
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	kf := float64(k)
	hi := x - float64(kf*ln2Hi)
	lo := float64(kf * ln2Lo)
	r := hi - lo
	// e^r = 1 + r + r·c/(2 − c) with c = r − r²·R(r²).
	t := float64(r * r)
	p := expP4 + float64(t*expP5)
	p = expP3 + float64(t*p)
	p = expP2 + float64(t*p)
	p = expP1 + float64(t*p)
	c := r - float64(t*p)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}
