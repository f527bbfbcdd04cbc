/* aafloor: the least an X11 paint program with an anti-aliased round brush can do per motion
 * event. Like peerbench's floorpaint, but each MotionNotify with button 1 held stamps an
 * anti-aliased capsule (8 px wide, from the previous point to this one, coverage by distance,
 * source-over black) into a client-side 32-bit image and puts the changed rectangle with
 * XShmPutImage (XPutImage without MIT-SHM), then flushes. No smoothing, no stroke layer, no
 * undo, no journal. Build: gcc -O2 -o aafloor aafloor.c -lX11 -lXext -lm */
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { W = 1920, H = 1200 };
static const double radius = 4.0;

static double dist(double px, double py, double ax, double ay, double bx, double by) {
	double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
	double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	double ex = px - ax - t * dx, ey = py - ay - t * dy;
	return sqrt(ex * ex + ey * ey);
}

int main(void) {
	Display *d = XOpenDisplay(NULL);
	if (!d) { fprintf(stderr, "no display\n"); return 1; }
	int s = DefaultScreen(d);
	Window w = XCreateSimpleWindow(d, RootWindow(d, s), 0, 0, 1280, 800, 0, 0, WhitePixel(d, s));
	XStoreName(d, w, "aafloor");
	long pid = getpid();
	XChangeProperty(d, w, XInternAtom(d, "_NET_WM_PID", False), XA_CARDINAL, 32, PropModeReplace,
		(unsigned char *)&pid, 1);
	XSelectInput(d, w, ButtonPressMask | ButtonMotionMask | ExposureMask);
	GC gc = XCreateGC(d, w, 0, NULL);
	Visual *v = DefaultVisual(d, s);
	XShmSegmentInfo shm;
	XImage *img = NULL;
	int useShm = XShmQueryExtension(d);
	if (useShm) {
		img = XShmCreateImage(d, v, 24, ZPixmap, NULL, &shm, W, H);
		shm.shmid = shmget(IPC_PRIVATE, img->bytes_per_line * H, IPC_CREAT | 0600);
		shm.shmaddr = img->data = shmat(shm.shmid, NULL, 0);
		shm.readOnly = False;
		XShmAttach(d, &shm);
		XSync(d, False);
		shmctl(shm.shmid, IPC_RMID, NULL);
	} else {
		img = XCreateImage(d, v, 24, ZPixmap, 0, malloc(W * H * 4), W, H, 32, 0);
	}
	uint32_t *px = (uint32_t *)img->data;
	for (int i = 0; i < W * H; i++) px[i] = 0xFFFFFF;
	XMapWindow(d, w);
	double lx = 0, ly = 0;
	for (;;) {
		XEvent e;
		XNextEvent(d, &e);
		if (e.type == Expose) {
			if (useShm) XShmPutImage(d, w, gc, img, e.xexpose.x, e.xexpose.y, e.xexpose.x, e.xexpose.y, e.xexpose.width, e.xexpose.height, False);
			else XPutImage(d, w, gc, img, e.xexpose.x, e.xexpose.y, e.xexpose.x, e.xexpose.y, e.xexpose.width, e.xexpose.height);
			continue;
		}
		if (e.type != MotionNotify && e.type != ButtonPress) continue;
		double x = (e.type == MotionNotify ? e.xmotion.x : e.xbutton.x) + 0.5;
		double y = (e.type == MotionNotify ? e.xmotion.y : e.xbutton.y) + 0.5;
		if (e.type == ButtonPress) { lx = x; ly = y; }
		int x0 = (int)floor(fmin(lx, x) - radius - 1), x1 = (int)ceil(fmax(lx, x) + radius + 1);
		int y0 = (int)floor(fmin(ly, y) - radius - 1), y1 = (int)ceil(fmax(ly, y) + radius + 1);
		x0 = x0 < 0 ? 0 : x0;
		y0 = y0 < 0 ? 0 : y0;
		x1 = x1 > W ? W : x1;
		y1 = y1 > H ? H : y1;
		for (int py = y0; py < y1; py++) {
			uint32_t *row = px + py * W;
			for (int pxl = x0; pxl < x1; pxl++) {
				double c = radius + 0.5 - dist(pxl + 0.5, py + 0.5, lx, ly, x, y);
				if (c <= 0) continue;
				unsigned a = c >= 1 ? 255 : (unsigned)(c * 255 + 0.5);
				uint32_t p = row[pxl];
				unsigned r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
				r = (r * (255 - a) + 127) / 255; g = (g * (255 - a) + 127) / 255; b = (b * (255 - a) + 127) / 255;
				row[pxl] = r << 16 | g << 8 | b;
			}
		}
		lx = x; ly = y;
		if (x1 > x0 && y1 > y0) {
			if (useShm) XShmPutImage(d, w, gc, img, x0, y0, x0, y0, x1 - x0, y1 - y0, False);
			else XPutImage(d, w, gc, img, x0, y0, x0, y0, x1 - x0, y1 - y0);
		}
		XFlush(d);
	}
}
