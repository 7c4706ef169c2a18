"""itcp.cli"""
