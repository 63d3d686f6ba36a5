// Tumble viewer: the view as scripts drive it. Each frame the viewer hands the scene's lua_State
// the mouse (tb.input), applies its camera requests (tb.camera.look_at, follow) and draws what it
// queued with tb.draw (bindings/l_view.c records; this file reads).
// SPDX-License-Identifier: MIT
#include "viewer.h"

#include <math.h>

static tbLuaView* tbSceneView( tbViewer* v )
{
	lua_State* L = tbScene_IsLoaded( v->scene ) ? tbScene_GetLuaState( v->scene ) : NULL;
	return L != NULL ? tbLua_GetView( L ) : NULL;
}

void tbScriptView_Feed( tbViewer* v )
{
	tbLuaView* view = tbSceneView( v );
	if ( view == NULL )
	{
		return;
	}
	tbLuaMouse* m = &view->mouse;
	m->valid = true;
	m->x = v->mouseX;
	m->y = v->mouseY;
	m->down = v->mouseButtons;
	m->pressed = v->mousePressed;
	m->released = v->mouseReleased;
	m->rayOrigin = tbCamera_GetEye( &v->camera );
	m->rayDirection = tbCamera_GetRay( &v->camera, v->mouseX * v->pixelRatio, v->mouseY * v->pixelRatio );
	if ( view->cameraKnown == false )
	{
		view->eye = m->rayOrigin;
		view->target = v->camera.target;
		view->cameraKnown = true;
	}
}

void tbScriptView_ApplyCamera( tbViewer* v, double seconds )
{
	tbLuaView* view = tbSceneView( v );
	if ( view == NULL )
	{
		return;
	}
	if ( view->lookAt )
	{
		tbCamera_LookAt( &v->camera, view->eye, view->target );
		view->lookAt = false;
	}
	if ( tbBody_IsValid( view->follow ) )
	{
		// Exponential approach with the script's time constant: frame-rate independent, and no
		// overshoot however far the body jumped.
		float k = view->followSmoothing > 0.0f ? 1.0f - expf( -(float)seconds / view->followSmoothing ) : 1.0f;
		tbVec3 body = tbBody_GetWorldCenterOfMass( view->follow );
		tbVec3 target = tbLerp( v->camera.target, body, k );
		if ( view->followHasOffset )
		{
			tbVec3 eye = tbLerp( tbCamera_GetEye( &v->camera ), tbAdd( body, view->followOffset ), k );
			tbCamera_LookAt( &v->camera, eye, target );
		}
		else
		{
			v->camera.target = target;
		}
	}
	view->eye = tbCamera_GetEye( &v->camera );
	view->target = v->camera.target;
	view->cameraKnown = true;
}

static tbRgba tbItemColor( const tbLuaDrawItem* item )
{
	return tbMakeRgba( (int)lroundf( 255.0f * item->color[0] ), (int)lroundf( 255.0f * item->color[1] ),
					   (int)lroundf( 255.0f * item->color[2] ), (int)lroundf( 255.0f * item->color[3] ) );
}

// A circle of radius r about centre in the plane of the unit vectors u and w, in 24 segments.
static void tbCircle( tbRenderer* r, tbVec3 centre, tbVec3 u, tbVec3 w, float radius, tbRgba color )
{
	tbVec3 previous = tbMulAdd( centre, radius, u );
	for ( int i = 1; i <= 24; ++i )
	{
		float angle = 2.0f * TB_PI * (float)i / 24.0f;
		tbVec3 p = tbAdd( centre, tbAdd( tbMulSV( radius * cosf( angle ), u ), tbMulSV( radius * sinf( angle ), w ) ) );
		tbRenderer_Line( r, previous, p, color, true );
		previous = p;
	}
}

void tbScriptView_Draw( tbViewer* v )
{
	tbLuaView* view = tbSceneView( v );
	if ( view == NULL )
	{
		return;
	}
	tbRenderer* r = v->renderer;
	float s = v->ui.scale;
	for ( int i = 0; i < view->count; ++i )
	{
		const tbLuaDrawItem* item = view->items + i;
		tbRgba color = tbItemColor( item );
		switch ( item->kind )
		{
			case tbLuaDraw_line:
				tbRenderer_Line( r, item->a, item->b, color, true );
				break;
			case tbLuaDraw_arrow:
			{
				tbRenderer_Line( r, item->a, item->b, color, true );
				// A head of four strokes, a fifth of the length (at most 0.3 m), about the shaft.
				tbVec3 d = tbSub( item->b, item->a );
				float length = tbLength( d );
				if ( length > 1.0e-4f )
				{
					tbVec3 axis = tbMulSV( 1.0f / length, d );
					tbVec3 side = fabsf( axis.z ) < 0.9f ? tbMakeVec3( 0.0f, 0.0f, 1.0f ) : tbMakeVec3( 1.0f, 0.0f, 0.0f );
					tbVec3 u = tbNormalize( tbCross( axis, side ) );
					tbVec3 w = tbCross( axis, u );
					float head = tbMinFloat( 0.2f * length, 0.3f );
					tbVec3 base = tbMulAdd( item->b, -head, axis );
					tbVec3 spokes[4] = { u, w, tbNeg( u ), tbNeg( w ) };
					for ( int k = 0; k < 4; ++k )
					{
						tbRenderer_Line( r, item->b, tbMulAdd( base, 0.4f * head, spokes[k] ), color, true );
					}
				}
				break;
			}
			case tbLuaDraw_point:
				tbRenderer_Point( r, item->a, color );
				break;
			case tbLuaDraw_box:
				tbRenderer_WireBox( r, item->a, item->b, item->rotation, color );
				break;
			case tbLuaDraw_sphere:
			{
				tbVec3 x = tbMakeVec3( 1.0f, 0.0f, 0.0f );
				tbVec3 y = tbMakeVec3( 0.0f, 1.0f, 0.0f );
				tbVec3 z = tbMakeVec3( 0.0f, 0.0f, 1.0f );
				tbCircle( r, item->a, x, y, item->radius, color );
				tbCircle( r, item->a, y, z, item->radius, color );
				tbCircle( r, item->a, z, x, item->radius, color );
				break;
			}
			case tbLuaDraw_text:
			{
				float px = 0.0f;
				float py = 0.0f;
				if ( tbCamera_Project( &v->camera, item->a, &px, &py ) )
				{
					const char* text = view->text + item->textOffset;
					float w = tbRenderer_TextWidth( text, s );
					tbRenderer_Text2D( r, px - 0.5f * w, py - tbRenderer_LineHeight( s ), text, s, color );
				}
				break;
			}
		}
	}
}
