-- Imported by imports/defs.fut: its names are not re-exported.
def hidden = 1i32
