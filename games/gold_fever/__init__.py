"""La Fièvre de l'Or (Cathala & Faidutti, 2004), the French edition of Boomtown."""
