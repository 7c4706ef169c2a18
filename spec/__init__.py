"""itcp.spec"""
