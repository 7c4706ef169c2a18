"""itcp.spec.rules"""
