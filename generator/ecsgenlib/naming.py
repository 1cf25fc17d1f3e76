"""C names: the words C, C++ and the headers generated code includes keep (a schema name must
not be one), and Names, which spells every C name derived from the schema's name."""

C_KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic
_Imaginary _Noreturn _Static_assert _Thread_local alignas alignof bool constexpr false
nullptr static_assert thread_local true typeof typeof_unqual _BitInt _Decimal32 _Decimal64
_Decimal128
""".split())
# C++ keywords and alternative tokens (C++23) that C lacks: the generated header also
# compiles as C++ (README), where a struct member or type named `new` or `and` is an error.
CPP_KEYWORDS = frozenset("""
and and_eq asm bitand bitor catch char8_t char16_t char32_t class co_await co_return co_yield
compl concept const_cast consteval constinit decltype delete dynamic_cast explicit export
friend mutable namespace new noexcept not not_eq operator or or_eq private protected public
reinterpret_cast requires static_cast template this throw try typeid typename using virtual
wchar_t xor xor_eq
""".split())
# Macros of the headers generated code includes, and names GNU C predefines. A field or
# component named like one would be macro-expanded in the generated code (`p->SIZE_MAX`).
_STDINT_MACROS = [f"{p}INT{w}_{s}" for w in ("8", "16", "32", "64", "_LEAST8", "_LEAST16", "_LEAST32",
                                             "_LEAST64", "_FAST8", "_FAST16", "_FAST32", "_FAST64",
                                             "PTR", "MAX")
                  for p, s in (("", "MIN"), ("", "MAX"), ("U", "MAX"))]
_STDINT_MACROS += [f"{p}INT{w}_C" for w in ("8", "16", "32", "64", "MAX") for p in ("", "U")]
_STDINT_MACROS += [f"{n}_{s}" for n in ("PTRDIFF", "SIG_ATOMIC", "WCHAR", "WINT") for s in ("MIN", "MAX")]
C_MACROS = frozenset("NULL EOF errno assert offsetof linux unix i386 noreturn complex imaginary SIZE_MAX "
                     "NDEBUG".split() + _STDINT_MACROS)


class Names:
    """Every C spelling derived from the schema's name: `game_x` and `GAME_X`."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.upper = prefix.upper()

    def fn(self, *parts):
        return "_".join([self.prefix, *parts])

    def type(self, *parts):
        return self.fn(*parts) + "_t"

    def macro(self, *parts):
        return "_".join([self.upper, *(p.upper() for p in parts)])

    def internal(self, *parts):
        """Not for users: a double underscore after the prefix (schema names have none)."""
        return self.prefix + "__" + "_".join(parts)
