"""itcp.model"""
