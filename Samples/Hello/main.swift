import LayerKitSDL
print("hello")
