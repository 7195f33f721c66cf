package costs

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// CheckPlotName accepts the files a plot can be written to: .svg or .png.
func CheckPlotName(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png":
		return nil
	}
	return fmt.Errorf("a plot is written to FILE.svg or FILE.png, not %q", path)
}

// WritePlot draws sweeps into path (.svg or .png): four panels, one per
// figure, each on log–log axes against the size, with a line for every
// expression as written (solid) and fused (dashed).
func WritePlot(path string, sweeps []*Sweep) error {
	if err := CheckPlotName(path); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := DrawPlot(&buf, strings.ToLower(filepath.Ext(path))[1:], sweeps); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// DrawPlot draws sweeps in format "svg" or "png" to w.
func DrawPlot(w io.Writer, format string, sweeps []*Sweep) error {
	if len(sweeps) == 0 || len(sweeps[0].Points) == 0 {
		return fmt.Errorf("nothing to plot")
	}
	const rows, cols = 2, 2
	width, height := 11*vg.Inch, 8.5*vg.Inch
	plots := make([][]*plot.Plot, rows)
	for k := 0; k < 4; k++ {
		if plots[k/cols] == nil {
			plots[k/cols] = make([]*plot.Plot, cols)
		}
		p, err := panel(k, sweeps)
		if err != nil {
			return err
		}
		plots[k/cols][k%cols] = p
	}
	var canvas vg.CanvasWriterTo
	switch format {
	case "svg":
		canvas = vgsvg.New(width, height)
	case "png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(96))}
	default:
		return fmt.Errorf("unknown plot format %q (svg or png)", format)
	}
	dc := draw.New(canvas)
	// A title line over the panels: the expression(s) and the sweep.
	titleH := vg.Length(28 * len(sweeps))
	sty := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 13), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	for i, sw := range sweeps {
		title := Shorten(sw.Expr, 110)
		if len(sweeps) > 1 {
			title = fmt.Sprintf("[%d] %s", i+1, title)
		}
		if len(sw.Given) > 0 {
			title += "   where " + Shorten(strings.Join(sw.Given, ", "), 60)
		}
		dc.FillText(sty, vg.Point{X: width / 2, Y: height - 8 - vg.Length(26*i)}, title)
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: titleH, PadX: vg.Inch / 3, PadY: vg.Inch / 3,
		PadLeft: vg.Inch / 8, PadRight: vg.Inch / 4, PadBottom: vg.Inch / 8}
	cs := plot.Align(plots, tiles, dc)
	for j := range plots {
		for i, p := range plots[j] {
			p.Draw(cs[j][i])
		}
	}
	_, err := canvas.WriteTo(w)
	return err
}

// panel is the plot of figure k.
func panel(k int, sweeps []*Sweep) (*plot.Plot, error) {
	f := FigureInfo[k]
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s (%s)", f.Symbol, f.Name, f.Unit)
	p.X.Label.Text = sweeps[0].Var
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Legend.Top, p.Legend.Left = true, true
	lo, hi := math.Inf(1), math.Inf(-1)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	var sizes []float64
	for si, sw := range sweeps {
		for row := 0; row < 2; row++ {
			var xys plotter.XYs
			for _, pt := range sw.Points {
				fig := pt.AsWritten
				if row == 1 {
					if pt.Fused == nil {
						continue
					}
					fig = *pt.Fused
				}
				y := float64(fig.Get(k))
				if y <= 0 { // not on a log axis
					continue
				}
				xys = append(xys, plotter.XY{X: float64(pt.N), Y: y})
				lo, hi = math.Min(lo, y), math.Max(hi, y)
				xlo, xhi = math.Min(xlo, float64(pt.N)), math.Max(xhi, float64(pt.N))
				if si == 0 && row == 0 {
					sizes = append(sizes, float64(pt.N))
				}
			}
			if len(xys) == 0 {
				continue
			}
			l, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			c := plotutil.Color(si)
			l.Color, pts.Color = c, c
			l.Width = vg.Points(1.5)
			pts.Shape = plotutil.Shape(row)
			label := "as written"
			if row == 1 {
				label = "fused"
				l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
			}
			growth := sw.Growth.AsWritten.Get(k)
			if row == 1 && sw.Growth.Fused != nil {
				growth = sw.Growth.Fused.Get(k)
			}
			label += ": " + growth
			if len(sweeps) > 1 {
				label = fmt.Sprintf("[%d] %s", si+1, label)
			}
			p.Add(l, pts)
			p.Legend.Add(label, l, pts)
		}
	}
	if math.IsInf(lo, 1) { // nothing positive: an empty panel on a unit range
		lo, hi, xlo, xhi = 1, 10, 1, 10
		p.X.Scale, p.Y.Scale = plot.LinearScale{}, plot.LinearScale{}
		p.Title.Text += " — zero at every size"
		return p, nil
	}
	// Whole decades on the y axis, so that log ticks have labels, with room
	// above for the legend.
	p.Y.Min = math.Pow(10, math.Floor(math.Log10(lo)))
	p.Y.Max = math.Pow(10, math.Ceil(math.Log10(hi)+0.5))
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max = xlo/1.2, xhi*1.2
	if len(sizes) <= 12 {
		var ticks plot.ConstantTicks
		for _, n := range sizes {
			ticks = append(ticks, plot.Tick{Value: n, Label: strconv.FormatFloat(n, 'f', -1, 64)})
		}
		p.X.Tick.Marker = ticks
	} else {
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	return p, nil
}
