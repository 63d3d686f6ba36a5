// Tumble physics: the parameters of a 4-lane (SSE2) instance of a lane template (lanes.h). The
// template undefines them at its end.
#define TB_W 4
#define TB_VF tbF4
#define TB_VI tbI4
#define TB_TARGET
#define TB_NAME( x ) tbLanes4##x
#define TB_SQRT( v ) tbSqrt4( v )
#define TB_ANY( m ) tbAny4( m )
