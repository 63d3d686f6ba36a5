// Tumble runtime: a small streaming JSON writer for the headless report.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>
#include <stdio.h>

#define TB_JSON_MAX_DEPTH 32

/// Writes one JSON value to a FILE. Commas and nesting are tracked; keys go before object values.
typedef struct tbJson
{
	FILE* out;
	int depth;
	bool needComma[TB_JSON_MAX_DEPTH];
	bool afterKey;
} tbJson;

void tbJson_Init( tbJson* json, FILE* out );
void tbJson_BeginObject( tbJson* json );
void tbJson_EndObject( tbJson* json );
void tbJson_BeginArray( tbJson* json );
void tbJson_EndArray( tbJson* json );
/// An object key (escaped); the next value belongs to it.
void tbJson_Key( tbJson* json, const char* key );
/// A string value (escaped: quotes, backslash, control characters as \uXXXX); NULL writes null.
void tbJson_String( tbJson* json, const char* value );
/// A number with 9 significant digits (enough to round-trip a float); NaN and inf write null.
void tbJson_Number( tbJson* json, double value );
void tbJson_Integer( tbJson* json, long long value );
void tbJson_Bool( tbJson* json, bool value );
void tbJson_Null( tbJson* json );
