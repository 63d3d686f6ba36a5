// Tumble runtime: a small streaming JSON writer.
// SPDX-License-Identifier: MIT
#include "json.h"

#include <math.h>

void tbJson_Init( tbJson* json, FILE* out )
{
	json->out = out;
	json->depth = 0;
	json->needComma[0] = false;
	json->afterKey = false;
}

// Separator before a value or key at the current level.
static void tbJson_Separate( tbJson* json )
{
	if ( json->afterKey )
	{
		json->afterKey = false;
		return;
	}
	if ( json->needComma[json->depth] )
	{
		fputs( ", ", json->out );
	}
	json->needComma[json->depth] = true;
}

static void tbJson_Open( tbJson* json, char c )
{
	tbJson_Separate( json );
	fputc( c, json->out );
	if ( json->depth + 1 < TB_JSON_MAX_DEPTH )
	{
		json->depth += 1;
	}
	json->needComma[json->depth] = false;
}

static void tbJson_Close( tbJson* json, char c )
{
	if ( json->depth > 0 )
	{
		json->depth -= 1;
	}
	fputc( c, json->out );
}

void tbJson_BeginObject( tbJson* json )
{
	tbJson_Open( json, '{' );
}

void tbJson_EndObject( tbJson* json )
{
	tbJson_Close( json, '}' );
}

void tbJson_BeginArray( tbJson* json )
{
	tbJson_Open( json, '[' );
}

void tbJson_EndArray( tbJson* json )
{
	tbJson_Close( json, ']' );
}

// Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong forms, no surrogates,
// nothing past U+10FFFF), or 0 when the bytes there are not one.
static int tbUtf8Length( const unsigned char* p )
{
	unsigned c = p[0];
	if ( c < 0x80u )
	{
		return 1;
	}
	int length = c >= 0xC2u && c <= 0xDFu ? 2 : c >= 0xE0u && c <= 0xEFu ? 3 : c >= 0xF0u && c <= 0xF4u ? 4 : 0;
	if ( length == 0 )
	{
		return 0;
	}
	// The second byte's range depends on the first (overlong forms, surrogates, the top).
	unsigned low = c == 0xE0u ? 0xA0u : c == 0xF0u ? 0x90u : 0x80u;
	unsigned high = c == 0xEDu ? 0x9Fu : c == 0xF4u ? 0x8Fu : 0xBFu;
	if ( p[1] < low || p[1] > high )
	{
		return 0;
	}
	for ( int i = 2; i < length; ++i )
	{
		if ( ( p[i] & 0xC0u ) != 0x80u )
		{
			return 0;
		}
	}
	return length;
}

// Writes s quoted and escaped. Bytes that are not well-formed UTF-8 (a name cut mid-character, a
// Latin-1 file name) are written as U+FFFD, so the report stays valid JSON whatever a script named.
static void tbJson_Quoted( tbJson* json, const char* s )
{
	fputc( '"', json->out );
	for ( const unsigned char* p = (const unsigned char*)s; *p != '\0'; ++p )
	{
		if ( *p >= 0x80u )
		{
			int length = tbUtf8Length( p );
			if ( length == 0 )
			{
				fputs( "\\ufffd", json->out );
			}
			else
			{
				fwrite( p, 1, (size_t)length, json->out );
				p += length - 1;
			}
			continue;
		}
		switch ( *p )
		{
			case '"':
				fputs( "\\\"", json->out );
				break;
			case '\\':
				fputs( "\\\\", json->out );
				break;
			case '\n':
				fputs( "\\n", json->out );
				break;
			case '\r':
				fputs( "\\r", json->out );
				break;
			case '\t':
				fputs( "\\t", json->out );
				break;
			default:
				if ( *p < 0x20 )
				{
					fprintf( json->out, "\\u%04x", (unsigned)*p );
				}
				else
				{
					fputc( *p, json->out );
				}
				break;
		}
	}
	fputc( '"', json->out );
}

void tbJson_Key( tbJson* json, const char* key )
{
	tbJson_Separate( json );
	tbJson_Quoted( json, key );
	fputs( ": ", json->out );
	json->afterKey = true;
}

void tbJson_String( tbJson* json, const char* value )
{
	if ( value == NULL )
	{
		tbJson_Null( json );
		return;
	}
	tbJson_Separate( json );
	tbJson_Quoted( json, value );
}

void tbJson_Number( tbJson* json, double value )
{
	if ( isfinite( value ) == 0 )
	{
		tbJson_Null( json );
		return;
	}
	tbJson_Separate( json );
	fprintf( json->out, "%.9g", value );
}

void tbJson_Integer( tbJson* json, long long value )
{
	tbJson_Separate( json );
	fprintf( json->out, "%lld", value );
}

void tbJson_Bool( tbJson* json, bool value )
{
	tbJson_Separate( json );
	fputs( value ? "true" : "false", json->out );
}

void tbJson_Null( tbJson* json )
{
	tbJson_Separate( json );
	fputs( "null", json->out );
}
