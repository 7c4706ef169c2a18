"""itcp.scenarios"""
