package types

import "strconv"

// Distinct sizes print with distinct names. Anonymous sizes are named when
// they are made (a parameter's [] becomes n, an existential d), so that
// two of them in one type, or an existential without a name, would print
// alike: (a: [][]f32) -> [n][n]f32. Before a type is printed, every size
// name in it that another distinct size already uses gets a number
// (n, n1, n2), and an unnamed existential becomes d, d1, ….

// sizeNamesOf lists the named sizes of t (and of extra) in the order they
// are printed, with the existentials apart.
func sizeNamesOf(t Type, extra []*SizeName) (order []*SizeName, exist map[*SizeName]bool) {
	seen := map[*SizeName]bool{}
	exist = map[*SizeName]bool{}
	note := func(n *SizeName) {
		if n != nil && !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}
	for _, n := range extra {
		note(n)
	}
	var size func(z Size)
	size = func(z Size) {
		switch z := resolveSize(z).(type) {
		case *SizeName:
			note(z)
		case *SizeExpr:
			if z.Op != "" {
				size(z.L)
				size(z.R)
			}
		case *SizeTerm:
			for _, a := range z.Args {
				size(a)
			}
		}
	}
	var walk func(t Type)
	walk = func(t Type) {
		for {
			switch x := Resolve(t).(type) {
			case *Array:
				size(x.Dim)
				t = x.Elem
				continue
			case *Arrow:
				note(x.Param)
				walk(x.From)
				for _, e := range x.Exist {
					exist[e] = true
					note(e)
				}
				t = x.To
				continue
			case *Record:
				for _, f := range x.Fields {
					walk(f.Type)
				}
			case *Sum:
				for _, c := range x.Constrs {
					for _, p := range c.Payload {
						walk(p)
					}
				}
			case *Con:
				for _, a := range x.Args {
					if a.Type != nil {
						walk(a.Type)
					} else {
						size(a.Size)
					}
				}
			}
			return
		}
	}
	walk(t)
	return order, exist
}

// printNames gives the sizes of t (and extra) that need another name their
// printed names; nil when every size prints as it is named.
func printNames(t Type, extra []*SizeName) map[*SizeName]*SizeName {
	order, exist := sizeNamesOf(t, extra)
	used := map[string]bool{}
	for _, n := range order {
		used[n.Name] = true
	}
	var out map[*SizeName]*SizeName
	taken := map[string]bool{}
	for _, n := range order {
		base := n.Name
		if base == "" {
			if !exist[n] {
				continue
			}
			base = "d"
		} else if !taken[base] {
			taken[base] = true
			continue
		}
		name := base
		for i := 1; taken[name] || (name != n.Name && used[name]); i++ {
			name = base + strconv.Itoa(i)
		}
		taken[name] = true
		if out == nil {
			out = map[*SizeName]*SizeName{}
		}
		out[n] = &SizeName{Name: name, Unknown: n.Unknown, Origin: n.Origin, id: n.id}
	}
	return out
}

// renameSizes is t with the sizes of m renamed, for printing.
func renameSizes(t Type, m map[*SizeName]*SizeName) Type {
	if len(m) == 0 {
		return t
	}
	one := func(n *SizeName) *SizeName {
		if r, ok := m[n]; ok {
			return r
		}
		return n
	}
	s := &subst{sizes: map[*SizeName]Size{}}
	for k, v := range m {
		s.sizes[k] = v
	}
	var walk func(t Type) Type
	walk = func(t Type) Type {
		switch x := Resolve(t).(type) {
		case *Array:
			return &Array{Unique: x.Unique, Dim: substSize(x.Dim, s), Elem: walk(x.Elem)}
		case *Arrow:
			a := &Arrow{From: walk(x.From), To: walk(x.To)}
			if x.Param != nil {
				a.Param = one(x.Param)
			}
			for _, e := range x.Exist {
				a.Exist = append(a.Exist, one(e))
			}
			return a
		case *Record:
			fs := make([]Field, len(x.Fields))
			for i, f := range x.Fields {
				fs[i] = Field{f.Name, walk(f.Type)}
			}
			return &Record{fs}
		case *Sum:
			cs := make([]Constr, len(x.Constrs))
			for i, c := range x.Constrs {
				ps := make([]Type, len(c.Payload))
				for j, p := range c.Payload {
					ps[j] = walk(p)
				}
				cs[i] = Constr{c.Name, ps}
			}
			return &Sum{cs}
		case *Con:
			args := make([]TypeArg, len(x.Args))
			for i, a := range x.Args {
				if a.Type != nil {
					args[i] = TypeArg{Type: walk(a.Type)}
				} else {
					args[i] = TypeArg{Size: substSize(a.Size, s)}
				}
			}
			return &Con{Con: x.Con, Args: args, Unique: x.Unique}
		}
		return t
	}
	return walk(t)
}
