/* The plain C program of SPEC §9's render targets: taskwidget's medium widget at @2x (728 × 340
 * pixels, device scale 2) drawn with Cairo + Pango the way Sources/TaskWidgetRender draws it
 * (WidgetLayout's medium layout, Canvas's text and shapes, FontSystem's fonts, the light theme),
 * for the entry `taskwidget render` shows on `taskwidget demo`'s store at 2026-11-22T12:00:00Z in
 * UTC. Its content is fixed here; only the drawing and the encoding are measured.
 *
 * Usage: widget [--writer cairo|libpng] (-o FILE | --frames N [-o FILE])
 *   --writer cairo   cairo_surface_write_to_png: Cairo's own writer (the default)
 *   --writer libpng  libpng with no filter and zlib level 2, as taskwidget's PNGEncoder (which
 *                    compresses the two halves at once: the same pixels, other bytes)
 *   --frames N       draw and encode N frames in memory after 5 warm-up frames, and print the
 *                    median and mean nanoseconds per frame
 *   -o FILE          write the frame (the last one with --frames) to FILE; needed without --frames
 *
 * Build: cc -O2 -o widget widget.c $(pkg-config --cflags --libs pangocairo libpng)
 */
#include <cairo.h>
#include <pango/pangocairo.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WIDTH = 364, HEIGHT = 170, SCALE = 2, WARMUP_FRAMES = 5 };
static const double PADDING = 16, RIGHT = WIDTH - 16, TITLE_SIZE = 13, ROW_PITCH = 26;
static const char *FAMILIES = "Inter, Noto Sans, Noto Sans Arabic, Noto Sans CJK SC, sans-serif";

/* The light theme. */
enum {
    BACKGROUND = 0xFFFFFF, PRIMARY = 0x1C1C1E, SECONDARY = 0x6C6C70, RED = 0xD70015, ACCENT = 0x0062CC,
    INBOX_DOT = 0x8E8E93
};

/* The demo store's entry at 2026-11-22T12:00:00Z: its header and its first five tasks. */
static const char *DAY = "Sun 22 Nov";
static const char *COUNTS_MARKUP = "<span foreground=\"#D70015\" weight=\"600\">2 overdue</span> · 3 today · 12 open";
static const struct task {
    const char *title;
    const char *due_label; /* NULL: no due date */
    uint32_t list_color;   /* 0: the Inbox */
    int is_overdue, is_active;
} TASKS[] = {
    {"Call the dentist", "Overdue · Yesterday 10:00", 0, 1, 0},
    {"Pay rent", "Overdue · 10:00", 0x34C759, 1, 0},
    {"Submit expense report", "12:45", 0x007AFF, 0, 0},
    {"Buy milk & eggs", "18:00", 0xFF9500, 0, 0},
    {"Water the plants", "Today", 0x34C759, 0, 0},
};

enum anchor { START, END };

/* The font map, one context and the font descriptions, made once per process as FontSystem does. */
static PangoContext *context;
static struct font {
    double size;
    int weight;
    PangoFontDescription *description;
} fonts[8]; /* the widget uses 6 */

static PangoFontDescription *font(double size, int weight) {
    int index = 0;
    for (; fonts[index].description; index++) {
        if (fonts[index].size == size && fonts[index].weight == weight) return fonts[index].description;
    }
    PangoFontDescription *description = pango_font_description_from_string(FAMILIES);
    pango_font_description_set_absolute_size(description, size * PANGO_SCALE);
    pango_font_description_set_weight(description, (PangoWeight)weight);
    fonts[index] = (struct font){size, weight, description};
    return description;
}

static void set_fonts_up(void) {
    PangoFontMap *font_map = pango_cairo_font_map_new();
    context = pango_font_map_create_context(font_map);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    pango_context_set_base_dir(context, PANGO_DIRECTION_LTR);
}

static void set_color(cairo_t *cairo, uint32_t color) {
    cairo_set_source_rgb(cairo, (color >> 16 & 0xFF) / 255.0, (color >> 8 & 0xFF) / 255.0, (color & 0xFF) / 255.0);
}

/* One line of text, its baseline at `baseline` and its anchor at `x`, cut with an ellipsis past
 * `max_width` (none when negative). Returns the width drawn. */
static double text(cairo_t *cairo, const char *string, int markup, double size, int weight, uint32_t color,
                   double x, double baseline, double max_width, enum anchor anchor) {
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_font_description(layout, font(size, weight));
    pango_layout_set_single_paragraph_mode(layout, TRUE);
    pango_layout_set_auto_dir(layout, FALSE);
    if (markup) {
        pango_layout_set_markup(layout, string, -1);
    } else {
        pango_layout_set_text(layout, string, -1);
    }
    if (max_width >= 0) {
        pango_layout_set_width(layout, (int)(max_width * PANGO_SCALE));
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
    }
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    double width = (double)logical.width / PANGO_SCALE;
    double ascent = (double)pango_layout_get_baseline(layout) / PANGO_SCALE;
    cairo_move_to(cairo, anchor == START ? x : x - width, baseline - ascent);
    set_color(cairo, color);
    pango_cairo_show_layout(cairo, layout);
    g_object_unref(layout);
    return width;
}

static void circle(cairo_t *cairo, double x, double y, double radius, uint32_t color) {
    cairo_new_sub_path(cairo);
    cairo_arc(cairo, x, y, radius, 0, 2 * G_PI);
    set_color(cairo, color);
    cairo_fill(cairo);
}

/* The card with rounded corners, the header, and the task rows. */
static void draw(cairo_t *cairo) {
    const double radius = 22;
    cairo_new_sub_path(cairo);
    cairo_arc(cairo, WIDTH - radius, radius, radius, -G_PI / 2, 0);
    cairo_arc(cairo, WIDTH - radius, HEIGHT - radius, radius, 0, G_PI / 2);
    cairo_arc(cairo, radius, HEIGHT - radius, radius, G_PI / 2, G_PI);
    cairo_arc(cairo, radius, radius, radius, G_PI, 3 * G_PI / 2);
    cairo_close_path(cairo);
    set_color(cairo, BACKGROUND);
    cairo_fill(cairo);

    const double header = PADDING + 13;
    double title_width = text(cairo, "Tasks", 0, 15, 600, ACCENT, PADDING, header, (RIGHT - PADDING) * 0.4, START);
    double day_width = text(cairo, DAY, 0, 12, 500, SECONDARY, PADDING + title_width + 7, header, -1, START);
    text(cairo, COUNTS_MARKUP, 1, 12, 500, SECONDARY, RIGHT, header,
         RIGHT - PADDING - title_width - 7 - day_width - 12, END);

    const double top = header + 9, bottom = HEIGHT - PADDING + 2, dot_radius = 4;
    const int rows = sizeof TASKS / sizeof TASKS[0];
    double pitch = (bottom - top) / rows < ROW_PITCH ? (bottom - top) / rows : ROW_PITCH;
    for (int index = 0; index < rows; index++) {
        const struct task *task = &TASKS[index];
        double center = top + pitch * index + pitch / 2;
        double baseline = center + TITLE_SIZE * 0.36;
        uint32_t color = task->is_overdue ? RED : PRIMARY;
        circle(cairo, PADDING + dot_radius, center, dot_radius, task->list_color ? task->list_color : INBOX_DOT);
        double title_end = RIGHT;
        if (task->due_label) {
            title_end -= text(cairo, task->due_label, 0, TITLE_SIZE - 1, task->is_overdue ? 600 : 400,
                              task->is_overdue ? RED : SECONDARY, RIGHT, baseline, (RIGHT - PADDING) * 0.52, END) + 10;
        }
        double title_x = PADDING + 2 * dot_radius + 7;
        text(cairo, task->title, 0, TITLE_SIZE, task->is_active ? 600 : 400, color, title_x, baseline,
             title_end - title_x, START);
    }
}

/* A growing byte buffer, where a frame's PNG goes. */
struct buffer {
    unsigned char *bytes;
    size_t count, capacity;
};

static void append(struct buffer *buffer, const unsigned char *bytes, size_t count) {
    if (buffer->count + count > buffer->capacity) {
        buffer->capacity = (buffer->count + count) * 2;
        buffer->bytes = realloc(buffer->bytes, buffer->capacity);
        if (!buffer->bytes) abort();
    }
    memcpy(buffer->bytes + buffer->count, bytes, count);
    buffer->count += count;
}

static cairo_status_t append_for_cairo(void *buffer, const unsigned char *bytes, unsigned int count) {
    append(buffer, bytes, count);
    return CAIRO_STATUS_SUCCESS;
}

static void append_for_libpng(png_structp png, png_bytep bytes, png_size_t count) {
    append(png_get_io_ptr(png), bytes, count);
}

/* The fast encoder: RGBA rows un-premultiplied from Cairo's ARGB32 words, no filter, zlib level 2. */
static void encode_with_libpng(cairo_surface_t *surface, struct buffer *buffer) {
    int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (!png || !info || setjmp(png_jmpbuf(png))) abort();
    png_set_write_fn(png, buffer, append_for_libpng, NULL);
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_compression_level(png, 2);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    unsigned char *row = malloc(4 * (size_t)width);
    for (int y = 0; y < height; y++) {
        const uint32_t *words = (const uint32_t *)(data + (size_t)y * stride);
        for (int x = 0; x < width; x++) {
            uint32_t word = words[x], alpha = word >> 24;
            uint32_t red = word >> 16 & 0xFF, green = word >> 8 & 0xFF, blue = word & 0xFF;
            if (alpha != 0xFF && alpha != 0) {
                red = (red * 255 + alpha / 2) / alpha;
                green = (green * 255 + alpha / 2) / alpha;
                blue = (blue * 255 + alpha / 2) / alpha;
            }
            row[4 * x] = red, row[4 * x + 1] = green, row[4 * x + 2] = blue, row[4 * x + 3] = alpha;
        }
        png_write_row(png, row);
    }
    free(row);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
}

/* A new surface with the widget drawn on it. */
static cairo_surface_t *draw_frame(void) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, WIDTH * SCALE, HEIGHT * SCALE);
    cairo_surface_set_device_scale(surface, SCALE, SCALE);
    cairo_t *cairo = cairo_create(surface);
    pango_cairo_update_context(cairo, context);
    draw(cairo);
    cairo_surface_flush(surface);
    if (cairo_status(cairo) != CAIRO_STATUS_SUCCESS) abort();
    cairo_destroy(cairo);
    return surface;
}

/* The PNG of `surface` in `buffer` (emptied first). */
static void encode(cairo_surface_t *surface, int use_libpng, struct buffer *buffer) {
    buffer->count = 0;
    if (use_libpng) {
        encode_with_libpng(surface, buffer);
    } else if (cairo_surface_write_to_png_stream(surface, append_for_cairo, buffer) != CAIRO_STATUS_SUCCESS) {
        abort();
    }
}

static int write_file(const char *path, const struct buffer *buffer) {
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(buffer->bytes, 1, buffer->count, file) != buffer->count || fclose(file)) {
        perror(path);
        return 74;
    }
    return 0;
}

static long long nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int by_value(const void *left, const void *right) {
    long long a = *(const long long *)left, b = *(const long long *)right;
    return (a > b) - (a < b);
}

static int usage(void) {
    fputs("usage: widget [--writer cairo|libpng] (-o FILE | --frames N [-o FILE])\n", stderr);
    return 64;
}

int main(int argc, char **argv) {
    int use_libpng = 0, frames = 0;
    const char *output = NULL;
    for (int index = 1; index < argc; index++) {
        if (!strcmp(argv[index], "--writer") && index + 1 < argc) {
            const char *writer = argv[++index];
            if (strcmp(writer, "cairo") && strcmp(writer, "libpng")) return usage();
            use_libpng = !strcmp(writer, "libpng");
        } else if (!strcmp(argv[index], "--frames") && index + 1 < argc) {
            frames = atoi(argv[++index]);
            if (frames < 1) return usage();
        } else if (!strcmp(argv[index], "-o") && index + 1 < argc) {
            output = argv[++index];
        } else {
            return usage();
        }
    }
    if (!frames && !output) return usage();
    set_fonts_up();
    struct buffer buffer = {0};

    if (!frames) {
        /* One shot, as a whole process runs it: drawn, then written to the file. */
        cairo_surface_t *surface = draw_frame();
        if (use_libpng) {
            encode(surface, 1, &buffer);
            return write_file(output, &buffer);
        }
        if (cairo_surface_write_to_png(surface, output) != CAIRO_STATUS_SUCCESS) {
            fprintf(stderr, "%s: cannot write the PNG\n", output);
            return 74;
        }
        return 0;
    }

    long long *times = malloc(sizeof *times * frames), total = 0;
    for (int frame = -WARMUP_FRAMES; frame < frames; frame++) {
        long long start = nanoseconds();
        cairo_surface_t *surface = draw_frame();
        encode(surface, use_libpng, &buffer);
        cairo_surface_destroy(surface);
        if (frame < 0) continue;
        times[frame] = nanoseconds() - start;
        total += times[frame];
    }
    qsort(times, frames, sizeof *times, by_value);
    printf("frames %d median_ns %lld mean_ns %lld png_bytes %zu\n", frames, times[frames / 2], total / frames,
           buffer.count);
    return output ? write_file(output, &buffer) : 0;
}
