package dev.sluice.pipeline.transform.expr;

import dev.sluice.pipeline.decode.convert.ConversionException;

/** Arithmetic, comparison and logic. NULL in, NULL out, except where SQL says otherwise. */
final class Operators {
    private Operators() {}

    /** {@code + - * %} on integers (overflow is an error, not a wraparound). */
    static final class IntArithmetic extends Expr {
        private final char op;
        private final Expr l;
        private final Expr r;

        IntArithmetic(Kind kind, char op, Expr l, Expr r) {
            super(kind);
            this.op = op;
            this.l = l;
            this.r = r;
        }

        @Override
        public long asLong(EvalContext c) {
            long a = l.asLong(c);
            if (c.nul) {
                return 0;
            }
            long b = r.asLong(c);
            if (c.nul) {
                return 0;
            }
            try {
                return switch (op) {
                    case '+' -> Math.addExact(a, b);
                    case '-' -> Math.subtractExact(a, b);
                    case '*' -> Math.multiplyExact(a, b);
                    default -> {
                        if (b == 0) {
                            throw new ConversionException("division by zero in " + this);
                        }
                        yield a % b;
                    }
                };
            } catch (ArithmeticException e) {
                throw new ConversionException("integer overflow in " + this);
            }
        }

        @Override
        public String toString() {
            return "(" + l + " " + op + " " + r + ")";
        }
    }

    /** {@code + - * /} in floating point; {@code /} is always this one, as in ClickHouse. */
    static final class FloatArithmetic extends Expr {
        private final char op;
        private final Expr l;
        private final Expr r;

        FloatArithmetic(char op, Expr l, Expr r) {
            super(Kind.FLOAT);
            this.op = op;
            this.l = l;
            this.r = r;
        }

        @Override
        public double asDouble(EvalContext c) {
            double a = l.asDouble(c);
            if (c.nul) {
                return 0;
            }
            double b = r.asDouble(c);
            if (c.nul) {
                return 0;
            }
            return switch (op) {
                case '+' -> a + b;
                case '-' -> a - b;
                case '*' -> a * b;
                case '/' -> a / b;
                default -> a % b;
            };
        }

        @Override
        public long asLong(EvalContext c) {
            return (long) asDouble(c);
        }
    }

    static final class Negate extends Expr {
        private final Expr e;

        Negate(Expr e) {
            super(e.kind);
            this.e = e;
        }

        @Override
        public long asLong(EvalContext c) {
            long v = e.asLong(c);
            if (v == Long.MIN_VALUE && !c.nul) {
                throw new ConversionException("integer overflow in -" + e);
            }
            return -v;
        }

        @Override
        public double asDouble(EvalContext c) {
            return -e.asDouble(c);
        }
    }

    /** How a comparison compares: as integers, floating point, or bytes. */
    enum Domain {
        LONG,
        DOUBLE,
        BYTES
    }

    /** {@code = != < <= > >=}: BOOL, NULL when either side is. */
    static final class Compare extends Expr {
        private final String op;
        private final Domain domain;
        private final Expr l;
        private final Expr r;

        Compare(String op, Domain domain, Expr l, Expr r) {
            super(Kind.BOOL);
            this.op = op;
            this.domain = domain;
            this.l = l;
            this.r = r;
        }

        @Override
        public long asLong(EvalContext c) {
            int cmp;
            switch (domain) {
                case LONG -> {
                    long a = l.asLong(c);
                    if (c.nul) {
                        return 0;
                    }
                    long b = r.asLong(c);
                    if (c.nul) {
                        return 0;
                    }
                    cmp = Long.compare(a, b);
                }
                case DOUBLE -> {
                    double a = l.asDouble(c);
                    if (c.nul) {
                        return 0;
                    }
                    double b = r.asDouble(c);
                    if (c.nul) {
                        return 0;
                    }
                    if (Double.isNaN(a) || Double.isNaN(b)) {
                        return op.equals("!=") ? 1 : 0; // NaN equals nothing
                    }
                    cmp = Double.compare(a, b);
                }
                default -> {
                    Slice a = l.asString(c);
                    if (c.nul) {
                        return 0;
                    }
                    Slice b = r.asString(c);
                    if (c.nul) {
                        return 0;
                    }
                    cmp = a.compareTo(b);
                }
            }
            return switch (op) {
                case "=" -> cmp == 0 ? 1 : 0;
                case "!=" -> cmp != 0 ? 1 : 0;
                case "<" -> cmp < 0 ? 1 : 0;
                case "<=" -> cmp <= 0 ? 1 : 0;
                case ">" -> cmp > 0 ? 1 : 0;
                default -> cmp >= 0 ? 1 : 0;
            };
        }

        @Override
        public String toString() {
            return "(" + l + " " + op + " " + r + ")";
        }
    }

    /** {@code x [not] in [a, b, ...]} over constants already converted to x's domain. */
    static final class In extends Expr {
        private final Expr e;
        private final Domain domain;
        private final long[] longs;
        private final double[] doubles;
        private final Slice[] strings;
        private final boolean negated;

        In(Expr e, Domain domain, long[] longs, double[] doubles, Slice[] strings, boolean not) {
            super(Kind.BOOL);
            this.e = e;
            this.domain = domain;
            this.longs = longs;
            this.doubles = doubles;
            this.strings = strings;
            this.negated = not;
        }

        @Override
        public long asLong(EvalContext c) {
            boolean found = false;
            switch (domain) {
                case LONG -> {
                    long v = e.asLong(c);
                    if (c.nul) {
                        return 0;
                    }
                    for (long x : longs) {
                        found |= x == v;
                    }
                }
                case DOUBLE -> {
                    double v = e.asDouble(c);
                    if (c.nul) {
                        return 0;
                    }
                    for (double x : doubles) {
                        found |= x == v;
                    }
                }
                default -> {
                    Slice v = e.asString(c);
                    if (c.nul) {
                        return 0;
                    }
                    for (Slice x : strings) {
                        if (x.equalTo(v)) {
                            found = true;
                            break;
                        }
                    }
                }
            }
            return found != negated ? 1 : 0;
        }
    }

    /** {@code x is [not] null}: never NULL itself. */
    static final class IsNull extends Expr {
        private final Expr e;
        private final boolean negated;

        IsNull(Expr e, boolean not) {
            super(Kind.BOOL);
            this.e = e;
            this.negated = not;
        }

        @Override
        public long asLong(EvalContext c) {
            switch (e.kind) {
                case STRING -> e.asString(c);
                case FLOAT -> e.asDouble(c);
                default -> e.asLong(c);
            }
            boolean isNull = c.nul;
            c.nul = false;
            return isNull != negated ? 1 : 0;
        }
    }

    /** {@code and}, {@code or} with SQL's three-valued logic. */
    static final class Logic extends Expr {
        private final boolean and;
        private final Expr l;
        private final Expr r;

        Logic(boolean and, Expr l, Expr r) {
            super(Kind.BOOL);
            this.and = and;
            this.l = l;
            this.r = r;
        }

        @Override
        public long asLong(EvalContext c) {
            int a = l.test(c);
            if (and ? a == 0 : a == 1) {
                c.nul = false;
                return and ? 0 : 1; // decided by the left side
            }
            int b = r.test(c);
            if (and ? b == 0 : b == 1) {
                c.nul = false;
                return and ? 0 : 1;
            }
            if (a == -1 || b == -1) {
                c.nul = true;
                return 0;
            }
            c.nul = false;
            return and ? 1 : 0;
        }
    }

    static final class Not extends Expr {
        private final Expr e;

        Not(Expr e) {
            super(Kind.BOOL);
            this.e = e;
        }

        @Override
        public long asLong(EvalContext c) {
            int v = e.test(c);
            c.nul = v == -1;
            return v == 0 ? 1 : 0;
        }
    }
}
