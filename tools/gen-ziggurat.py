#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-ziggurat.py - the tables of sim/stats.c's ziggurat exponential.

Prints the C block between the "BEGIN/END tools/gen-ziggurat.py" markers
of sim/stats.c: paste it over the old one, then clang-format -i
sim/stats.c (which aligns the columns). It computes in 60-digit
decimal arithmetic and rounds once to double, so the tables do not depend
on the machine or its libm.

The ziggurat (G. Marsaglia and W. W. Tsang, "The Ziggurat Method for
Generating Random Variables", J. Stat. Software 5(8), 2000) covers
f(x) = exp(-x), x >= 0, with 256 layers of equal area V: layer 0 is the
rectangle [0, R] x [0, f(R)] plus the tail x > R; layer i >= 1 is the
rectangle [0, x_i] x [f(x_i), f(x_i+1)], with x_1 = R, x_i+1 =
-ln(V / x_i + f(x_i)), x_256 = 0. Layer 0 is drawn as a rectangle of
width x_0 = V / f(R) whose part beyond R stands for the tail.

  w[i] = x_i 2^-53             a 53-bit integer u gives x = u w[i] in
                               [0, x_i), uniform
  k[i] = floor(2^53 x_i+1 / x_i)  u < k[i]: x < x_i+1, under the curve
  f[i] = exp(-x_i), i <= 256   the wedge test of layer i >= 1

k and w are the members of one struct (sim/stats.h: struct sim_zig_exp).
"""
from decimal import Decimal, getcontext

getcontext().prec = 60
R = Decimal("7.69711747013104972")
V = Decimal("0.0039496598225815571993")
N = 256
TWO53 = Decimal(2) ** 53


def f(x):
    return (-x).exp()


x = [V / f(R), R]
for i in range(1, N - 1):
    x.append(-((V / x[i]) + f(x[i])).ln())
x.append(Decimal(0))
assert len(x) == N + 1
# The recursion must land near 0: x_255 is the top layer's width.
assert x[N - 1] > 0 and abs(V / x[N - 1] + f(x[N - 1]) - 1) < Decimal("1e-12")


def hexd(d):
    return float(d).hex()


def rows(vals, per, indent):
    return ["\t" * indent + " ".join(v + "," for v in vals[i:i + per])
            for i in range(0, len(vals), per)]


def block(name, ctype, vals, per):
    out = ["const %s %s[%d] = {" % (ctype, name, len(vals))]
    out += rows(vals, per, 1)
    out.append("};")
    return "\n".join(out)


# k and w, which every draw reads, in one struct: one address to form
def member(name, vals, per):
    return "\n".join(["\t.%s = {" % name] + rows(vals, per, 2) + ["\t},"])


w = [hexd(x[i] / TWO53) for i in range(N)]
k = ["0x%014xull" % int((TWO53 * x[i + 1] / x[i]).to_integral_value(rounding="ROUND_FLOOR"))
     for i in range(N)]
fv = [hexd(f(x[i])) for i in range(N)] + ["0x1.0000000000000p+0"]
print("/* BEGIN tools/gen-ziggurat.py: do not edit by hand */")
print("#define ZIG_R %s /* %s */" % (hexd(R), R))
print("const struct sim_zig_exp sim_zig_exp = {")
print(member("k", k, 3))
print(member("w", w, 3))
print("};")
print(block("sim_zig_exp_f", "double", fv, 3))
print("/* END tools/gen-ziggurat.py */")
