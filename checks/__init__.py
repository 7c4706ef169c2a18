"""itcp.checks"""
