// Tumble physics: the parameters of an 8-lane (AVX2 and FMA) instance of a lane template
// (lanes.h), x86 only. The template undefines them at its end.
#define TB_W 8
#define TB_VF tbF8
#define TB_VI tbI8
#define TB_TARGET TB_AVX2_TARGET
#define TB_NAME( x ) tbLanes8##x
#define TB_SQRT( v ) tbSqrt8( v )
#define TB_ANY( m ) tbAny8( m )
