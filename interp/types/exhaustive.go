package types

func (c *Checker) checkExhaustive() {}
