//! A small RGB picture and the few shapes the games draw their boards with (rectangles,
//! polygons, hexagons, circles, thick lines), for `Codec::render`: Gymnasium's and
//! PettingZoo's `rgb_array` render mode. No anti-aliasing: a pixel is inside a shape when its
//! centre is.

/// One colour, red, green, blue.
pub type Rgb = [u8; 3];

/// `0xRRGGBB` as a colour, so palettes read like the viewer's CSS (`#d55e00`).
pub const fn rgb(hex: u32) -> Rgb {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8]
}

/// The viewer's seat colours (`PLAYER_COLORS` in crates/viewer/assets/svg.js), seat 0 first.
pub const SEAT_COLORS: [Rgb; 4] = [rgb(0xd55e00), rgb(0x0072b2), rgb(0x009e73), rgb(0xf0e442)];

/// The viewer's light seat colours (`PLAYER_LIGHT`).
pub const SEAT_LIGHT: [Rgb; 4] = [rgb(0xf2c7a8), rgb(0xa9cfe8), rgb(0xa8dccb), rgb(0xf8f2b0)];

/// Seat `p`'s colour (grey past the fourth seat, as the viewer).
pub fn seat_color(p: usize) -> Rgb {
    SEAT_COLORS.get(p).copied().unwrap_or(rgb(0x888888))
}

/// `width × height` pixels, row by row, three bytes each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raster {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

impl Raster {
    /// A picture filled with `background`.
    pub fn new(width: usize, height: usize, background: Rgb) -> Raster {
        Raster {
            width,
            height,
            rgb: background.repeat(width * height),
        }
    }

    /// The colour at (x, y).
    pub fn pixel(&self, x: usize, y: usize) -> Rgb {
        let i = 3 * (y * self.width + x);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn put(&mut self, x: usize, y: usize, color: Rgb) {
        let i = 3 * (y * self.width + x);
        self.rgb[i..i + 3].copy_from_slice(&color);
    }

    /// Pixels x..x+w, y..y+h, clipped to the picture.
    pub fn fill_rect(&mut self, x: i32, y: i32, w: i32, h: i32, color: Rgb) {
        let clip = |v: i32, max: usize| v.clamp(0, max as i32) as usize;
        let (x0, x1) = (clip(x, self.width), clip(x + w, self.width));
        let (y0, y1) = (clip(y, self.height), clip(y + h, self.height));
        for py in y0..y1 {
            for px in x0..x1 {
                self.put(px, py, color);
            }
        }
    }

    /// The border of the rectangle x..x+w, y..y+h, `thickness` pixels inwards.
    pub fn outline_rect(&mut self, x: i32, y: i32, w: i32, h: i32, thickness: i32, color: Rgb) {
        let t = thickness.min(w).min(h);
        self.fill_rect(x, y, w, t, color);
        self.fill_rect(x, y + h - t, w, t, color);
        self.fill_rect(x, y, t, h, color);
        self.fill_rect(x + w - t, y, t, h, color);
    }

    /// The polygon through `points` (any shape, even-odd rule).
    pub fn fill_polygon(&mut self, points: &[(f32, f32)], color: Rgb) {
        if points.len() < 3 {
            return;
        }
        let (lo, hi) = points.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.1), hi.max(p.1))
        });
        let first = lo.floor().max(0.0) as usize;
        let last = (hi.ceil().max(0.0) as usize).min(self.height);
        let mut crossings = Vec::new();
        for py in first..last {
            let y = py as f32 + 0.5;
            crossings.clear();
            for (i, &(ax, ay)) in points.iter().enumerate() {
                let (bx, by) = points[(i + 1) % points.len()];
                if (ay <= y) != (by <= y) {
                    crossings.push(ax + (y - ay) / (by - ay) * (bx - ax));
                }
            }
            crossings.sort_by(f32::total_cmp);
            for pair in crossings.chunks_exact(2) {
                // Pixels whose centre lies between the two crossings.
                let x0 = (pair[0] - 0.5).ceil().max(0.0) as usize;
                let x1 = ((pair[1] - 0.5).ceil().max(0.0) as usize).min(self.width);
                for px in x0..x1 {
                    self.put(px, py, color);
                }
            }
        }
    }

    /// A pointy-top hexagon of circumradius `r` centred on (cx, cy), as the viewer's hexes.
    pub fn fill_hexagon(&mut self, cx: f32, cy: f32, r: f32, color: Rgb) {
        self.fill_polygon(&hexagon(cx, cy, r), color);
    }

    /// The disc of radius `r` centred on (cx, cy).
    pub fn fill_circle(&mut self, cx: f32, cy: f32, r: f32, color: Rgb) {
        let points: Vec<(f32, f32)> = (0..32)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 32.0;
                (cx + r * a.cos(), cy + r * a.sin())
            })
            .collect();
        self.fill_polygon(&points, color);
    }

    /// A straight stroke `width` pixels wide from `a` to `b`.
    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, color: Rgb) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len == 0.0 {
            return;
        }
        let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
        self.fill_polygon(
            &[
                (a.0 + nx, a.1 + ny),
                (b.0 + nx, b.1 + ny),
                (b.0 - nx, b.1 - ny),
                (a.0 - nx, a.1 - ny),
            ],
            color,
        );
    }

    /// The closed outline through `points`, `width` pixels wide.
    pub fn outline_polygon(&mut self, points: &[(f32, f32)], width: f32, color: Rgb) {
        for (i, &a) in points.iter().enumerate() {
            self.line(a, points[(i + 1) % points.len()], width, color);
        }
    }
}

/// The corners of a pointy-top hexagon (the viewer's `hex`: angles -30°, 30°, ... 270°).
pub fn hexagon(cx: f32, cy: f32, r: f32) -> [(f32, f32); 6] {
    std::array::from_fn(|i| {
        let a = (60.0 * i as f32 - 30.0).to_radians();
        (cx + r * a.cos(), cy + r * a.sin())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const INK: Rgb = [1, 2, 3];
    const WHITE: Rgb = [255, 255, 255];

    fn count(raster: &Raster, color: Rgb) -> usize {
        raster.rgb.chunks(3).filter(|p| *p == color).count()
    }

    #[test]
    fn colours_read_like_css() {
        assert_eq!(rgb(0xd55e00), [0xd5, 0x5e, 0x00]);
        assert_eq!(seat_color(1), [0x00, 0x72, 0xb2]);
        assert_eq!(seat_color(7), [0x88; 3]);
    }

    #[test]
    fn rectangles_fill_and_outline_exact_pixels_clipped_to_the_picture() {
        let mut r = Raster::new(10, 8, WHITE);
        assert_eq!(r.rgb.len(), 10 * 8 * 3);
        r.fill_rect(8, 6, 5, 5, INK);
        assert_eq!(count(&r, INK), 4);
        assert_eq!(r.pixel(9, 7), INK);
        r.fill_rect(-3, -3, 2, 2, INK);
        assert_eq!(count(&r, INK), 4, "entirely outside");
        let mut r = Raster::new(10, 10, WHITE);
        r.outline_rect(1, 1, 5, 4, 1, INK);
        assert_eq!(count(&r, INK), 2 * 5 + 2 * 2);
        assert_eq!(r.pixel(3, 2), WHITE, "the inside stays");
    }

    #[test]
    fn polygons_cover_pixels_whose_centres_are_inside() {
        let mut r = Raster::new(10, 10, WHITE);
        // The square 2..6 × 2..6 as a polygon: 16 pixels, the same as the rectangle.
        r.fill_polygon(&[(2.0, 2.0), (6.0, 2.0), (6.0, 6.0), (2.0, 6.0)], INK);
        assert_eq!(count(&r, INK), 16);
        assert_eq!((r.pixel(2, 2), r.pixel(6, 6)), (INK, WHITE));
        let mut r = Raster::new(10, 10, WHITE);
        r.fill_polygon(&[(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)], INK);
        assert_eq!(
            count(&r, INK),
            45,
            "a half square below its diagonal's centres"
        );
    }

    #[test]
    fn hexagons_circles_and_lines_have_their_area() {
        let mut r = Raster::new(60, 60, WHITE);
        r.fill_hexagon(30.0, 30.0, 20.0, INK);
        let area = 1.5 * 3f32.sqrt() * 400.0;
        assert!((count(&r, INK) as f32 - area).abs() < 0.03 * area);
        assert_eq!(r.pixel(30, 11), INK, "pointy top reaches up");
        assert_eq!(r.pixel(48, 30), WHITE, "flat side at √3/2 r");
        let mut r = Raster::new(60, 60, WHITE);
        r.fill_circle(30.0, 30.0, 10.0, INK);
        let area = std::f32::consts::PI * 100.0;
        assert!((count(&r, INK) as f32 - area).abs() < 0.03 * area);
        let mut r = Raster::new(20, 20, WHITE);
        r.line((2.0, 10.0), (12.0, 10.0), 2.0, INK);
        assert_eq!(count(&r, INK), 20);
        r.outline_polygon(&hexagon(10.0, 10.0, 5.0), 1.0, INK);
        assert_eq!(r.pixel(10, 10), INK, "the line drawn first");
        assert_eq!(r.pixel(10, 7), WHITE, "an outline leaves the inside");
    }
}
