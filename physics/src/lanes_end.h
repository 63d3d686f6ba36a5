// Tumble physics: the end of a lane template's instance (lanes.h): its parameters (lanes_w4.h,
// lanes_w8.h) and lanes_math.h's names end here, so the next instance defines its own.
#undef TB_FN
#undef tbV3
#undef tbQ4
#undef TB_W
#undef TB_VF
#undef TB_VI
#undef TB_TARGET
#undef TB_NAME
#undef TB_SQRT
#undef TB_ANY
